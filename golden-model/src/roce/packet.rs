//! See docs/roce.md (work in progress).
