import HTTPWire
