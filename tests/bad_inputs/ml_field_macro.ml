type t = { x : float32; linux : int32 } [@@sarek.type]
