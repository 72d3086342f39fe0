type _t = { x : int32 } [@@sarek.type]
