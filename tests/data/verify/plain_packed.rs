// Plain.mixed packed: mass at offset 4, size 12, alignment 1 on every target. rustc must
// report the difference (the test that the rustc driver really reads the compiler's numbers).
#[allow(non_camel_case_types, dead_code)]
#[repr(C, packed)]
pub struct Plain_mixed {
    pub id: i32,
    pub mass: f64,
}
