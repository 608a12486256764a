mod flow_sched;
