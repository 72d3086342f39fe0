let () =
  Printf.printf "Scene_node %d\nParticles_particle %d\n" (Shapes.node_size ())
    (Particles.particle_size ())
