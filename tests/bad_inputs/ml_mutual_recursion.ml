type a = { x : b } [@@sarek.type]
and b = { y : a } [@@sarek.type]
