//! Harness (work in progress).
