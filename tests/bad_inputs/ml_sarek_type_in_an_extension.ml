(* An attribute inside an extension node is not on a structure's type declaration. *)
[%%cstruct type t = { x : int32 } [@@sarek.type]]
