// Preloaded (node -r) into a measured process: at exit, writes its peak resident set size in bytes to the file
// BENCH_RSS_FILE names. The same for fleetctl and the bare pager, so neither pays more for being measured.
process.on('exit', () => {
  require('node:fs').writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS * 1024));
});
