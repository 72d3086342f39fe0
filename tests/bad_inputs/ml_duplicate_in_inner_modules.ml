module Rays = struct
  type hit = { t : float32; id : int32 } [@@sarek.type]
end

module Shadows = struct
  type hit = { occluded : bool } [@@sarek.type]
end
