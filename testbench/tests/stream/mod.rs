mod axis_fifo;
mod axis_skid;
