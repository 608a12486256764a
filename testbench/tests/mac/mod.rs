mod axis_async_fifo;
mod req_sync;
mod tx_pause;
mod xgmii_rx;
mod xgmii_tx;
