//! Tests (work in progress).
