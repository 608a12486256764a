//! Fixed point against the f64 reference.
