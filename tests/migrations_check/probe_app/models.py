"""No models: the migrations alone describe the probe's table."""
