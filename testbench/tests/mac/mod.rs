mod axis_async_fifo;
mod gmii_rx;
mod gmii_tx;
mod req_sync;
mod tx_pause;
mod xgmii_rx;
mod xgmii_tx;
