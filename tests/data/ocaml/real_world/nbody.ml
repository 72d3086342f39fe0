(******************************************************************************
 * N-body step, all-pairs, one thread per body.
 *
 * Element types are declared with [@@sarek.type] next to the kernels that use
 * them.  Everything else in this file (kernels, host code, comments, strings)
 * must be skipped by a reader of the types: (* a nested comment with a "*)"
 * string and a quote ' and a char '"' in it *) still inside the outer one.
 ******************************************************************************)

[@@@warning "-32-69"]

module Vector = Spoc_core.Vector
module Device = Spoc_core.Device

(* Sarek sources often shadow float32 for the host side; no attribute, so no Sarek type. *)
type float32 = float

(** A body: position, velocity and mass.  [float] is a GPU float32, as in
    Sarek's PPX ("float" -> 4 bytes). *)
type body = {
  mutable px : float32;
  mutable py : float32;
  mutable pz : float32;
  mutable vx : float;
  mutable vy : float;
  mutable vz : float;
  mass : float32;
}
[@@sarek.type]

(* Accumulated force and the number of neighbours within the cut-off radius. *)
type force = { fx : float32; fy : float32; fz : float32; neighbours : int }
[@@sarek.type]

and stats = {
  kinetic : float64;
  potential : float64;
  steps : int64;
  converged : bool;
}
[@@sarek.type]

let softening = 1e-9

let description = "type fake = { not_a_type : int32 } [@@sarek.type] (* not a comment"

let banner = {|N-body (* not a comment either *) "quotes" stay raw|}

let tagged = {nbody|a quoted string with |} inside |nbody}

let quote_char = '\''

let[@sarek.module] inv_dist (dx : float32) (dy : float32) (dz : float32) : float32 =
  1.0 /. sqrt ((dx *. dx) +. (dy *. dy) +. (dz *. dz) +. 1e-9)

let forces_kernel =
  snd
    [%kernel
      fun (bodies : body vector) (out : force vector) (n : int32) ->
        let i = thread_idx_x + (block_idx_x * block_dim_x) in
        if i < n then begin
          let b = bodies.(i) in
          let fx = mut 0.0 in
          let fy = mut 0.0 in
          let fz = mut 0.0 in
          let k = mut 0 in
          for j = 0 to n - 1 do
            if j <> i then begin
              let o = bodies.(j) in
              let inv = inv_dist (o.px -. b.px) (o.py -. b.py) (o.pz -. b.pz) in
              fx := fx +. ((o.px -. b.px) *. inv *. o.mass) ;
              fy := fy +. ((o.py -. b.py) *. inv *. o.mass) ;
              fz := fz +. ((o.pz -. b.pz) *. inv *. o.mass) ;
              k := k + 1
            end
          done ;
          out.(i) <- {fx; fy; fz; neighbours = k}
        end]

let%kernel integrate (bodies : body vector) (f : force vector) (dt : float32) =
  let i = thread_idx_x + (block_idx_x * block_dim_x) in
  let b = bodies.(i) in
  let g = f.(i) in
  b.vx <- b.vx +. (g.fx *. dt) ;
  b.px <- b.px +. (b.vx *. dt)

let () =
  let dev = (Device.all ()).(0) in
  ignore (dev, description, banner, tagged, quote_char, softening)
