module Geo = struct
  type point = { x : float32; y : float32 } [@@sarek.type]
end

type segment = { a : Geo.point; b : Geo.pointt } [@@sarek.type]
