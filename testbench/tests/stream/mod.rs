mod axis_fifo;
mod axis_skid;
mod axis_width;
