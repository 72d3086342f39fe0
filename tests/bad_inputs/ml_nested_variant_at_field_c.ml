type t = A | B [@@sarek.type]
type u = C of t [@@sarek.type]