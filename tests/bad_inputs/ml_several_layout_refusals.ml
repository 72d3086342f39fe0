(* The declarations read; the layout rules refuse two types, and a third one only because it
   holds a refused one (not reported again). *)
type mode = Idle | Busy of int32 [@@sarek.type]

type job = {
  id : int32;
  state : mode;
} [@@sarek.type]

type batch = { first : job; count : int32 } [@@sarek.type]

type sample = { value : float32 } [@@sarek.type]

type event =
  | Started of int64
  | Changed of int32 * mode
[@@sarek.type]

type trace = { when_ : int64; what : evnt } [@@sarek.type]
