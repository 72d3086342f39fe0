type point = { x : float32; y : float32 } [@@sarek_type]
