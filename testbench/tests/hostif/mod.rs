mod axil_slave;
mod cq_engine;
mod csr;
mod dma_rd_mux;
mod dma_wr_pack;
// mod host_if;
mod sq_engine;
mod stats_sel;
mod wqe_unpack;
