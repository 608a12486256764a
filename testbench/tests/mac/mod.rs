mod xgmii_rx;
mod xgmii_tx;
