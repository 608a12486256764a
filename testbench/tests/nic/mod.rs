mod cc_arb;
mod cfg_regs;
mod core;
mod ev_arb;
mod read_resp;
mod rx_ctx_mux;
mod tx_arb;
