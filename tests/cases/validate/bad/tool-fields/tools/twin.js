// not python
