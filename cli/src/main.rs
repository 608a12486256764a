//! `hpccnic`: the command-line front end.
fn main() {}
