module M = struct
  type t = { x : int32 } [@@sarek.type]
end