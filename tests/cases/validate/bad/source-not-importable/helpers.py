# a module beside the folder helpers/: the name helpers is this file
