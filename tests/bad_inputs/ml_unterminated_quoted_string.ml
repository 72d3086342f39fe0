(* a comment *)
let x = {|never closed