(* A Sarek source with deliberate mistakes the OCaml reader refuses, each in its own
   type; the good types around them are fine.  Every refused type must be reported in
   one run, and a type that only uses a refused one must not be reported again. *)

type float32 = float

type point = { x : float32; y : float32 } [@@sarek.type]

(* refused: a tuple field has no Sarek layout *)
type segment = { ends : point * point; width : float32 } [@@sarek.type]

(* refused: a real GADT (its result is another type) *)
type shape =
  | Dot : point -> shape
  | Line : segment -> point
[@@sarek.type]

(* fine *)
type colour = { r : float32; g : float32; b : float32 } [@@sarek.type]

(* refused: strings have no fixed size *)
type label = { text : string; at : point } [@@sarek.type]

(* not reported: it only holds a refused type *)
type labelled = { l : label; c : colour } [@@sarek.type]

(* refused: an inline record argument *)
type marker =
  | Pin of { at : point; size : float32 }
  | Flag
[@@sarek.type]

(* refused: a misspelt attribute, which Sarek would silently ignore *)
type tile = { row : int32; col : int32 } [@@sarek.typ]

let%kernel paint (tiles : colour vector) = tiles.(thread_idx_x) <- {r = 0.; g = 0.; b = 0.}
