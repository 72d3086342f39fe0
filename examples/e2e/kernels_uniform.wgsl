// The wgsl-uniform record of view.toml in a var<uniform> (after view.wgsl), as a wgpu compute
// shader reads it: every member's words copied to a storage buffer, which uniforms.py
// compares with the values the host wrote.
@group(0) @binding(0) var<uniform> view: View_view;
@group(0) @binding(1) var<storage, read_write> words: array<u32>;

@compute @workgroup_size(1)
fn main() {
    for (var i = 0u; i < 4u; i++) { words[i] = bitcast<u32>(view.tint[i]); }
    for (var i = 0u; i < 4u; i++) { words[4u + i] = bitcast<u32>(view.weights[i].v); }
    words[8] = bitcast<u32>(view.offset.x);
    words[9] = bitcast<u32>(view.offset.y);
    words[10] = select(0u, 1u, view.blend == View_mode_Add);
    words[11] = view.frame;
}
