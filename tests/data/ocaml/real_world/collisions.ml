(* Uses the types of physics_lib.ml (another schema file, given on the same command
   line) and an inner module of its own. *)

open Physics_lib

module Contact = struct
  type contact = { a : int32; b : int32; normal : Physics_lib.vec2; depth : float32 }
  [@@sarek.type]
end

type body = {
  pos : Physics_lib.vec2;
  vel : Physics_lib.vec2;
  mat : Physics_lib.material;
  id : int32;
}
[@@sarek.type]

type event =
  | Touch : Contact.contact -> event
  | Separate : int32 * int32 -> event
  | Sleep : event
[@@sarek.type]

let%kernel collide (bodies : body vector) (events : event vector) =
  let i = thread_idx_x in
  let b = bodies.(i) in
  if len2 b.vel < 1e-6 then events.(i) <- Sleep
