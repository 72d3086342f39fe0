(* Sarek kernels with element types of their own: a histogram and a ray caster.

   This comment mentions code that must not be read:
     type hidden = { h : int32 } [@@sarek.type]
   and a "string with a *) closing" that is part of the comment,
   a quoted {|raw *) text|} and {id|type nope = A [@@sarek.type]|id},
   a character '"' and another '\'' and an escaped "\"" quote. (* nested (* twice *) *)
*)

[@@@ocaml.warning "-32"]

open Spoc

module Ktypes = struct
  (* A submodule type without the attribute is fine. *)
  type scratch = { s : int32 }
end

let version = "1.0 (* not a comment *)"
let marker = '('
let star = '*'
let close = ')'
let sym = {|(*|}

(** A bin of the histogram.
    @param lo lower bound *)
type bin = {
  lo : float32;
  hi : float32;
  mutable count : int32;
} [@@sarek.type]

type ray = {
  origin : vec3;
  direction : vec3;
  t_max : float64;
}
[@@sarek.type]
and vec3 = { vx : float32; vy : float32; vz : float32 }
[@@sarek.type]

type hit =
    None_
  | Hit of float64 * int32   (* distance, object id *)
  | Miss of unit
  [@@sarek.type]

type 'a pair = 'a * 'a

let identity (type a) (x : a) : a = x

let typed : type a. a -> a = fun x -> x

module type S = sig
  type t
  val f : t -> t
end

module Make (X : S) : S with type t = X.t = struct
  type t = X.t
  let f = X.f
end

let histogram = [%kernel fun (data : float32 vector) (bins : bin vector) ->
  let open Std in
  let i = thread_idx_x + block_dim_x * block_idx_x in
  if i < Vector.length data then begin
    let v = data.[<i>] in
    (* type inside_kernel = { k : int32 } [@@sarek.type] *)
    let label = "type t = A [@@sarek.type]" in
    ignore label;
    for b = 0 to Vector.length bins - 1 do
      let bn = bins.[<b>] in
      if v >= bn.lo && v < bn.hi then
        bins.[<b>] <- { bn with count = bn.count + 1l }
    done
  end]

let%kernel trace (rays : ray vector) (out : hit vector) =
  let i = thread_idx_x in
  out.[<i>] <- Miss ()

type counter = { mutable hits : int64; label_id : int }
[@@deriving show]
[@@sarek.type_private]
;;

let () = print_endline "done"
