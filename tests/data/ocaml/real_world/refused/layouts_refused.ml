(* A Sarek source the OCaml reader reads whole, with types the layout rules (or the
   names they use) refuse.  Every refused type must be reported in one run. *)

type state = Idle | Running of int32 | Done of float64 [@@sarek.type]

(* fine: a variant is an element type at the top level *)
type job = { id : int32; priority : float32 } [@@sarek.type]

(* refused: a variant nested in a record *)
type task = { job : job; state : state } [@@sarek.type]

(* not reported: it only holds a refused type *)
type queue_entry = { task : task; slot : int32 } [@@sarek.type]

(* refused: a vector has no layout inside an element *)
type batch = { jobs : job vector; count : int32 } [@@sarek.type]

(* refused: a misspelt type name *)
type report = { done_jobs : int64; last : jbo } [@@sarek.type]

module Scheduler = struct
  (* refused: a variant as a constructor argument *)
  type decision = Run of job * state | Wait [@@sarek.type]
end

let%kernel step (jobs : job vector) = jobs.(thread_idx_x).id <- 0l
