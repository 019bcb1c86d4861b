// `node --import ./test/build/record-modules.mjs ...`: appends the URL of every module loaded to $FLEETCTL_LOADED_MODULES.
import { register } from 'node:module';

register('./record-modules-hooks.mjs', import.meta.url, { data: { file: process.env.FLEETCTL_LOADED_MODULES } });
