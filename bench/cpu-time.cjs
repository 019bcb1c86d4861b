// Preloaded (node -r) into a measured process: at exit, writes the CPU time it used, user and system, all its
// threads, in microseconds, to the file BENCH_CPU_FILE names. On a machine busy with other work, a process's wall
// time counts the time it waited for a core; its CPU time does not. The same for fleetctl and the bare script.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  require('node:fs').writeFileSync(process.env.BENCH_CPU_FILE, String(user + system));
});
