mod delay;
mod divider;
mod min_max;
mod normalize;
mod sat_add_sub;
mod wide_mul;
