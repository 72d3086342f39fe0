type t = { half : float32 } [@@sarek.type]
