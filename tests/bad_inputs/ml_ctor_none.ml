type t = None | Some of int32 [@@sarek.type]
