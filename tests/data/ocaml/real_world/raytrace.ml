(* A small ray tracer: geometry and materials live in modules of their own.

   Sarek registers a [@@sarek.type] of an inner module under the file's module
   (Raytrace.vec3, C name Raytrace_vec3), so Geometry.vec3 below is that type. *)

open Sarek

module Geometry = struct
  type vec3 = { x : float32; y : float32; z : float32 } [@@sarek.type]

  type ray = { origin : vec3; dir : vec3; tmax : float32 } [@@sarek.type]

  (* A helper type without the attribute: host-side only. *)
  type aabb = { lo : vec3; hi : vec3 }

  let[@sarek.module] dot (a : vec3) (b : vec3) : float32 =
    (a.x *. b.x) +. (a.y *. b.y) +. (a.z *. b.z)
end

module Materials : sig
  type material =
    | Diffuse : float32 -> material
    | Metal : float32 * float32 -> material
    | Emissive : float64 -> material
    | Void : material
  [@@sarek.type]

  val default : material
end = struct
  (* GADT syntax whose result is the type itself: a plain variant. *)
  type material =
    | Diffuse : float32 -> material
    | Metal : float32 * float32 -> material  (* albedo, fuzz *)
    | Emissive : float64 -> material
    | Void : material
  [@@sarek.type]

  let default = Diffuse 0.5
end

type sphere = {
  centre : Geometry.vec3;
  radius : float32;
  material_id : int32;
}
[@@sarek.type]

type hit =
  | Miss
  | Hit of float32 * int32 * Geometry.vec3  (* distance, sphere, normal *)
[@@sarek.type]

type pixel = { r : float32; g : float32; b : float32; samples : int32 }
[@@sarek.type_private]

let trace =
  [%kernel
    fun (rays : Geometry.ray vector) (spheres : sphere vector) (out : hit vector) ->
      let i = thread_idx_x + (block_dim_x * block_idx_x) in
      let r = rays.(i) in
      let best = mut r.tmax in
      let found = mut (-1) in
      for s = 0 to Vector.length spheres - 1 do
        let sp = spheres.(s) in
        let t = Geometry.dot r.dir sp.centre in
        if t > 0.0 && t < best then begin
          best := t ;
          found := s
        end
      done ;
      if found < 0 then out.(i) <- Miss
      else out.(i) <- Hit (best, found, r.dir)]

let%kernel shade (hits : hit vector) (img : pixel vector) =
  let i = thread_idx_x in
  match hits.(i) with
  | Miss -> img.(i) <- {r = 0.0; g = 0.0; b = 0.0; samples = 1}
  | Hit (d, _, _) -> img.(i) <- {r = d; g = d; b = d; samples = 1}
