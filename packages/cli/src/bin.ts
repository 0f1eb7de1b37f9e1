#!/usr/bin/env node
/** The `docflow` executable. */
import { main } from './main.ts';

process.exitCode = await main(process.argv);
