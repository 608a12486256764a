mod fifo;
mod ram;
