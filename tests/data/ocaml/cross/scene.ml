open Geometry_lib

type sprite = {
  at : Geometry_lib.point;
  bounds : Geometry_lib.box;
  layer : int32;
} [@@sarek.type]

type event =
  | Moved of Geometry_lib.point
  | Clicked of sprite * int64
  | Quit
[@@sarek.type]
