/**
 * VNF instances as a runtime holds them: the names a VNF declared at setup resolved to ids,
 * the catalogue of every state table of a chain, a single-version state store for serial
 * execution, and the recorder of one packet's post-processing actions. Used by the VNF
 * harness and by the engine's serial oracle; set up on one thread, then read-only except
 * for the store and the recorder, which belong to the executing thread.
 */
package io.transnfv.vnf.instance;
