#!/usr/bin/env node
/** The `docflow` executable. */
import { exitQuietlyOnClosedPipes } from './closed-pipes.ts';
import { main } from './main.ts';

exitQuietlyOnClosedPipes([process.stdout, process.stderr]);
process.exitCode = await main(process.argv);
