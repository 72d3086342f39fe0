type _ t = A : int32 t [@@sarek.type]
