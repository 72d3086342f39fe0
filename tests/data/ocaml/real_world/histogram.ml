(* Histogram kernels: a functor over the bin count, local modules inside kernels,
   and types registered for the host and the device. *)

[@@@ocaml.warning "-32"]

open Spoc_core

module type BINS = sig
  val count : int
  (* A signature may mention types too; only structures declare Sarek types. *)
  type bin_index = int
end

module Make (B : BINS) = struct
  (* In a functor body: still registered under the file's module. *)
  type bucket = { lo : float32; hi : float32; mutable hits : int } [@@sarek.type]

  let bins = B.count

  let fill =
    [%kernel
      let module Local = struct
        (* A kernel-local type: no [@@sarek.type], not a schema type. *)
        type acc = { n : int32 }
      end in
      fun (data : float32 vector) (buckets : bucket vector) ->
        let i = thread_idx_x + (block_dim_x * block_idx_x) in
        let v = data.(i) in
        for b = 0 to Vector.length buckets - 1 do
          let bk = buckets.(b) in
          if v >= bk.lo && v < bk.hi then bk.hits <- bk.hits + 1
        done]
end

module Hist16 = Make (struct
  let count = 16
  type bin_index = int
end)

type summary = {
  total : int64;
  overflow : int32;
  underflow : int32;
  mean : float64;
  valid : bool;
}
[@@deriving show]
[@@sarek.type]

type update =
  | Reset
  | Add of int32
  | Merge of summary
  | Mark of unit
[@@sarek.type]

let name = "histogram \"v2\" (* not a comment *)"

let apply (u : update) (s : summary) =
  match u with
  | Reset -> {s with total = 0L}
  | Add k -> {s with total = Int64.add s.total (Int64.of_int32 k)}
  | Merge o -> {s with total = Int64.add s.total o.total}
  | Mark () -> s
