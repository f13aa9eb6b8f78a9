raise ImportError("the submission's numpy.py was imported instead of numpy")
