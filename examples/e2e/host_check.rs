// End-to-end example, Rust host: builds the same samples and readings as data.py (and
// host_check.c) with the generated telemetry.rs only, and checks that the bytes Python wrote
// (inputs.bin) are exactly its own `to_bytes`, and that `from_bytes` reads every element back.
//
//     SAREK_E2E_OUT=DIR rustc --edition 2021 host_check.rs -o host_check_rs
//     ./host_check_rs N DIR/inputs.bin
//
// The module is included as a Cargo build script's output would be:
// include!(concat!(env!("OUT_DIR"), "/telemetry.rs")) (docs/rust.md).

#[allow(dead_code)]
mod telemetry {
    include!(concat!(env!("SAREK_E2E_OUT"), "/telemetry.rs"));
}

use telemetry::{Telemetry_reading, Telemetry_reading_View, Telemetry_sample, Telemetry_vec2};

/// data.py's `sample(i)` (keep the formulas in step).
fn sample(i: i32) -> Telemetry_sample {
    let pos = Telemetry_vec2::new(i as f32 * 0.5, (-i) as f32 * 1.5);
    Telemetry_sample::new(i * 7 - 3, (1i64 << 40) + i as i64 * 1000003, i as f64 * 0.25 - 100.0,
                          pos, (i % 3 == 0) as i32)
}

/// data.py's `reading(i)`.
fn reading(i: i32) -> Telemetry_reading {
    match i % 5 {
        0 => Telemetry_reading::Temp(i as f32 * 0.5 - 10.0),
        1 => Telemetry_reading::Count(-(1i64 << 35) - i as i64, i * 3),
        2 => Telemetry_reading::Located(Telemetry_vec2::new(i as f32, (-i) as f32 * 0.25),
                                        i as f64 * 1e10),
        3 => Telemetry_reading::Flag((i % 2 == 0) as i32),
        _ => Telemetry_reading::Missing(),
    }
}

fn fail(message: String) -> ! {
    eprintln!("rust host: {}", message);
    std::process::exit(1)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse().expect("N");
    let input = std::fs::read(&args[2]).unwrap_or_else(|e| fail(format!("{}: {}", args[2], e)));
    let (ss, rs) = (Telemetry_sample::SIZE, Telemetry_reading::SIZE);
    if input.len() != n * (ss + rs) {
        fail(format!("inputs.bin is {} bytes, expected {}", input.len(), n * (ss + rs)));
    }
    let mut mine = Vec::with_capacity(input.len());
    for i in 0..n {
        mine.extend_from_slice(&sample(i as i32).to_bytes());
    }
    let mut kinds = [0usize; 5];
    for i in 0..n {
        let r = reading(i as i32);
        kinds[r.tag() as usize] += 1;
        mine.extend_from_slice(&r.to_bytes());
    }
    if let Some(at) = mine.iter().zip(&input).position(|(a, b)| a != b) {
        fail(format!("byte {} differs from Python's ({:#04x} here, {:#04x} in inputs.bin)",
                     at, mine[at], input[at]));
    }
    for i in 0..n {
        let got = Telemetry_sample::from_bytes(&input[i * ss..(i + 1) * ss])
            .unwrap_or_else(|e| fail(format!("sample {}: {}", i, e)));
        if got != sample(i as i32) {
            fail(format!("sample {} reads back as {:?}", i, got));
        }
        let at = n * ss + i * rs;
        let got = Telemetry_reading::from_bytes(&input[at..at + rs])
            .unwrap_or_else(|e| fail(format!("reading {}: {}", i, e)));
        if got != reading(i as i32) {
            fail(format!("reading {} reads back as {:?}", i, got));
        }
        // Matched from safe Rust through the view, as a user would.
        if let Telemetry_reading_View::Flag(b) = got.view() {
            if b != (i % 2 == 0) as i32 {
                fail(format!("reading {}: Flag holds {}", i, b));
            }
        }
    }
    println!("rust host: {} samples and {} readings ({} Temp, {} Count, {} Located, {} Flag, {} \
              Missing) built with telemetry.rs: byte for byte the bytes Python wrote, and read \
              back member by member", n, n, kinds[0], kinds[1], kinds[2], kinds[3], kinds[4]);
}
