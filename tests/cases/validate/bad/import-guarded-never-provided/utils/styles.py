STYLES = {"plain": {}}
