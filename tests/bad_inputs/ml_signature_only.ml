type point = { x : float32; y : float32 } [@@sarek.type]

module Particle : sig
  type t = { pos : point; mass : float32 } [@@sarek.type]
end = struct
  type t = { pos : point; mass : float32 }
end
