(* A file of kernels only: no element type of its own. *)
open Sarek

let saxpy =
  [%kernel
    fun (a : float32) (x : float32 vector) (y : float32 vector) (n : int32) ->
      let i = thread_idx_x + (block_dim_x * block_idx_x) in
      if i < n then y.(i) <- (a *. x.(i)) +. y.(i)]
