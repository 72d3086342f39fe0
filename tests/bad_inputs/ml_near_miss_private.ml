type point = { x : float32 } [@@sarek.type]
type counter = { n : int32 } [@@sarek.type_privat]
type other = { m : int64 } [@@sarek.types]
