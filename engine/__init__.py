"""nospin engines: model backends behind one interface, prompt formats and post-processing."""
