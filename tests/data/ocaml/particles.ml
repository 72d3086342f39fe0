(* Particle simulation on the GPU with Sarek.
   (* A nested comment: type fake = { x : int32 } [@@sarek.type] *)
   "a string in a comment with *) inside" and a char '"' too.
   It's fine to write apostrophes: don't, can't, won't. *)

open Spoc
open Sarek

(** Doc comment: the [@@sarek.type] attribute below marks element types.
    {[ type ignored = { no : int32 } [@@sarek.type] ]} *)

type float32 = float

(* A 2-D point in single precision. *)
type point = {
  x : float32;  (* abscissa *)
  y : float32;  (** ordinate *)
}
[@@sarek.type]

type particle = {
  id : int32;
  mutable mass : float64 [@default 1.0];
  pos : point;
  mutable alive : bool;
} [@@sarek.type]

type shape =
  | Circle of point * float32
  | Rect of point * point
  | Weighted of float64 * int32
  | Empty
[@@sarek.type]

let banner = "type not_a_type = { a : int32 } [@@sarek.type] \"escaped *) quote\""
let quoted = {|raw (* not a comment *) "not a string|}
let tagged = {sarek|type also_not = Foo [@@sarek.type] |} |sarek}
let quote_char = '\''
let dquote_char = '"'
let newline = '\n'

type colour = Red | Green | Blue [@@deriving show]

module Helpers = struct
  type local = { l : int32 }
  let twice x = x * 2
end

let swap (type a) (f : a -> a) x = f x

let step = [%kernel fun (ps : particle vector) (dt : float32) ->
  let open Std in
  let i = thread_idx_x + block_dim_x * block_idx_x in
  if i < Vector.length ps then begin
    let p = ps.[<i>] in
    ps.[<i>] <- { p with pos = { x = p.pos.x +. dt; y = p.pos.y } }
  end]

type stats = { count : int; total : float64 }
[@@sarek.type_private]
and unrelated = int list
and bounds = {
  lo : point;
  hi : point
} [@@sarek.type]
