mod flow_sched;
mod flow_state_ram;
mod lazy_credit;
mod sched_counters;
